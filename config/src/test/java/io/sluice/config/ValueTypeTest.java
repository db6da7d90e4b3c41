package io.sluice.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ValueTypeTest {

    @Test
    void byteSize_acceptsBytesAndBinaryUnits() {
        assertEquals(Optional.of(100L << 20), ValueType.BYTE_SIZE.parse("100MiB"));
        assertEquals(Optional.of(512L << 10), ValueType.BYTE_SIZE.parse("512 kib"));
        assertEquals(Optional.of(2L << 30), ValueType.BYTE_SIZE.parse("2GiB"));
        assertEquals(Optional.of(7L), ValueType.BYTE_SIZE.parse("7B"));
        assertEquals(Optional.of(1234L), ValueType.BYTE_SIZE.parse(" 1234 "));
    }

    @Test
    void byteSize_rejectsFractionsSignsDecimalUnitsAndOverflow() {
        for (String text : new String[] { "1.5MiB", "-1", "100MB", "MiB", "", "9999999999999GiB" })
            assertEquals(Optional.empty(), ValueType.BYTE_SIZE.parse(text), text);
    }

    @Test
    void seconds_acceptsIntegersAndDecimals() {
        assertEquals(Optional.of(Duration.ofSeconds(180)), ValueType.SECONDS.parse("180"));
        assertEquals(Optional.of(Duration.ofMillis(1500)), ValueType.SECONDS.parse("1.5"));
        assertEquals(Optional.of(Duration.ofMillis(500)), ValueType.SECONDS.parse(".5"));
        assertEquals(Optional.of(Duration.ZERO), ValueType.SECONDS.parse("0.0"));
    }

    @Test
    void seconds_rejectsSignsExponentsUnitsAndNaN() {
        for (String text : new String[] { "-1", "+1", "1e3", "10s", "NaN", "Infinity", "", "." })
            assertEquals(Optional.empty(), ValueType.SECONDS.parse(text), text);
    }

    @Test
    void positiveSeconds_rejectsZero() {
        assertEquals(Optional.empty(), ValueType.POSITIVE_SECONDS.parse("0"));
    }

    @Test
    void boolean_acceptsXsdBooleans() {
        assertEquals(Optional.of(true), ValueType.BOOLEAN.parse("1"));
        assertEquals(Optional.of(false), ValueType.BOOLEAN.parse("false"));
        assertEquals(Optional.empty(), ValueType.BOOLEAN.parse("TRUE"));
    }

    @Test
    void port_acceptsZeroTo65535() {
        assertEquals(Optional.of(0), ValueType.PORT.parse("0"));
        assertEquals(Optional.of(65535), ValueType.PORT.parse("65535"));
        assertEquals(Optional.empty(), ValueType.PORT.parse("-1"));
    }

}
