package io.sluice.document;

import java.util.List;
import java.util.Objects;

/** The operations on one top-level field of an update, applied in order. */
public record FieldUpdate(Field field, List<ValueUpdate> updates) {

    /** Throws {@link InvalidUpdateException} naming the field if an operation does not fit its type. */
    public FieldUpdate {
        Objects.requireNonNull(field, "field");
        updates = List.copyOf(updates);
        for (ValueUpdate update : updates) {
            try {
                update.check(field.type());
            } catch (InvalidUpdateException e) {
                throw new InvalidUpdateException("Field '" + field.name() + "': " + e.getMessage(), e);
            }
        }
    }

    /** This field update with {@code update} appended. */
    public FieldUpdate with(ValueUpdate update) {
        List<ValueUpdate> all = new java.util.ArrayList<>(updates);
        all.add(update);
        return new FieldUpdate(field, all);
    }
}
