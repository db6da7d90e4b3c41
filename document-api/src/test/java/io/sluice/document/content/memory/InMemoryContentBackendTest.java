package io.sluice.document.content.memory;

import io.sluice.document.content.ContentBackend;
import io.sluice.document.content.ContentBackendConformanceTest;
import io.sluice.document.content.ManualClock;

class InMemoryContentBackendTest extends ContentBackendConformanceTest {

    @Override
    protected ContentBackend createBackend(ManualClock clock) {
        return InMemoryContentBackend.builder().clock(clock).threads(2).build();
    }

}
