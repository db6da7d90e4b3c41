package io.sluice.document.json;

import io.sluice.document.DocumentId;
import io.sluice.document.DocumentTypes;
import io.sluice.document.schema.SchemaParser;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A document type with every field type, shared by the JSON tests. */
final class TestTypes {

    static final DocumentTypes TYPES = SchemaParser.parse(Map.of(
            "other.sd", "schema other { document other { } }",
            "all.sd", String.join("\n",
            "schema all {",
            "  document all {",
            "    struct person { field name type string {} field age type int {} }",
            "    field s type string {}",
            "    field i type int {}",
            "    field l type long {}",
            "    field b type byte {}",
            "    field flag type bool {}",
            "    field f type float {}",
            "    field d type double {}",
            "    field arr type array<string> {}",
            "    field ints type array<int> {}",
            "    field ws type weightedset<string> {}",
            "    field wsi type weightedset<int> {}",
            "    field m type map<string, int> {}",
            "    field mi type map<int, person> {}",
            "    field p type person {}",
            "    field people type array<person> {}",
            "    field pos type position {}",
            "    field dense type tensor<float>(x[3]) {}",
            "    field matrix type tensor(x[2],y[2]) {}",
            "    field sparse type tensor(key{}) {}",
            "    field mixed type tensor(a{},x[2]) {}",
            "    field mixed2 type tensor(a{},b{},x[2]) {}",
            "    field sparse2 type tensor(a{},b{}) {}",
            "    field bf type tensor<bfloat16>(x[2]) {}",
            "    field i8 type tensor<int8>(x[2]) {}",
            "    field raw type raw {}",
            "    field uri type uri {}",
            "    field pred type predicate {}",
            "    field ref type reference<other> {}",
            "  }",
            "}")));

    static final DocumentId ID = DocumentId.of("id:ns:all::1");

    private TestTypes() {
    }

    static byte[] utf8(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
