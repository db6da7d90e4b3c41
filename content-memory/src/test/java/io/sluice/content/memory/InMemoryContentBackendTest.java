package io.sluice.content.memory;

import io.sluice.content.ContentBackend;
import io.sluice.content.ContentBackendConformanceTest;
import io.sluice.content.ManualClock;

class InMemoryContentBackendTest extends ContentBackendConformanceTest {

    @Override
    protected ContentBackend createBackend(ManualClock clock) {
        return InMemoryContentBackend.builder().clock(clock).threads(2).build();
    }

}
