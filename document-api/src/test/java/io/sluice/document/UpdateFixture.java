package io.sluice.document;

import io.sluice.document.schema.SchemaParser;
import java.util.Map;

/** A document type with a field for every kind of update, and helpers to build documents and tensors. */
final class UpdateFixture {

    static final DocumentTypes TYPES = SchemaParser.parse("shop.sd", String.join("\n",
            "schema shop {",
            "  document shop {",
            "    struct person { field name type string {} field age type int {} }",
            "    struct item { field title type string {} field price type double {} }",
            "    field title type string {}",
            "    field count type int {}",
            "    field big type long {}",
            "    field score type double {}",
            "    field ratio type float {}",
            "    field small type byte {}",
            "    field flag type bool {}",
            "    field tags type array<string> {}",
            "    field ints type array<int> {}",
            "    field ws type weightedset<string> {}",
            "    field counters type weightedset<string> { weightedset { create-if-nonexistent remove-if-zero } }",
            "    field wsi type weightedset<int> {}",
            "    field m type map<string, int> {}",
            "    field people type map<string, person> {}",
            "    field contact type person {}",
            "    field staff type array<person> {}",
            "    field nested type map<string, map<string, array<item>>> {}",
            "    field sparse type tensor(key{}) {}",
            "    field sparse2 type tensor(a{},b{}) {}",
            "    field mixed type tensor(a{},x[2]) {}",
            "    field dense type tensor<float>(x[3]) {}",
            "    field pos type position {}",
            "  }",
            "}"));

    static final DocumentType SHOP = TYPES.get("shop");
    static final DocumentId ID = DocumentId.of("id:ns:shop::1");
    static final TensorType SPARSE = TensorType.parse("tensor(key{})");
    static final TensorType SPARSE2 = TensorType.parse("tensor(a{},b{})");
    static final TensorType MIXED = TensorType.parse("tensor(a{},x[2])");
    static final TensorType DENSE = TensorType.parse("tensor<float>(x[3])");

    private UpdateFixture() {
    }

    /** A document with these field name / value pairs. */
    static Document doc(Object... nameValuePairs) {
        Document.Builder builder = Document.builder(SHOP, ID);
        for (int i = 0; i < nameValuePairs.length; i += 2)
            builder.set((String) nameValuePairs[i], (FieldValue) nameValuePairs[i + 1]);
        return builder.build();
    }

    static DocumentUpdate.Builder update() {
        return DocumentUpdate.builder(SHOP, ID);
    }

    static StringValue str(String value) {
        return new StringValue(value);
    }

    static ArrayValue strings(String... values) {
        ArrayValue array = ArrayValue.EMPTY;
        for (String value : values) array = array.withAdded(java.util.List.of(str(value)));
        return array;
    }

    static WeightedSetValue weights(Object... keyWeightPairs) {
        WeightedSetValue set = WeightedSetValue.EMPTY;
        for (int i = 0; i < keyWeightPairs.length; i += 2)
            set = set.with(str((String) keyWeightPairs[i]), (Integer) keyWeightPairs[i + 1]);
        return set;
    }

    static StructValue person(String name, int age) {
        return new StructValue(Map.of("name", str(name), "age", new IntValue(age)));
    }

    /** A tensor from labels given as "dim=label,dim=label" strings and values, alternating. */
    static TensorValue tensor(TensorType type, Object... addressValuePairs) {
        TensorValue.Builder builder = TensorValue.builder(type);
        for (int i = 0; i < addressValuePairs.length; i += 2)
            builder.cell(labels((String) addressValuePairs[i]), ((Number) addressValuePairs[i + 1]).doubleValue());
        return builder.build();
    }

    static Map<String, String> labels(String address) {
        Map<String, String> labels = new java.util.LinkedHashMap<>();
        for (String part : address.split(",")) {
            String[] kv = part.split("=", 2);
            labels.put(kv[0], kv[1]);
        }
        return labels;
    }
}
