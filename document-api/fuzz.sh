#!/usr/bin/env bash
# Bounded coverage-guided fuzz pass over the document-api parsers, for CI.
# Each @FuzzTest runs for its maxDuration (30 s) with Jazzer in fuzzing mode; Jazzer fuzzes one target per JVM, so the
# targets run one after another. A finding fails the run and is written as a new seed under
# src/test/resources/<package>/<TestClass>Inputs/<target>/ (commit it once fixed: it then replays in every
# normal build). The generated working corpus goes to document-api/.cifuzz-corpus/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("ParserFuzzTest#documentId"
         "ParserFuzzTest#selection"
         "DocumentJsonFuzzTest#readPut_anyBytes_givesDocumentOrTypedError"
         "UpdateBodyFuzzTest#updateBody"
         "SchemaFuzzTest#parse_anyText_givesTypesOrTypedError"
         "FieldSetFuzzTest#parse_anyText_givesFieldSetOrTypedError")
for target in "${targets[@]}"; do
  echo "== fuzzing ${target}"
  JAZZER_FUZZ=1 ./mvnw -B -q -pl document-api test -Dtest="${target}" -Dsurefire.failIfNoSpecifiedTests=false
done
echo "fuzzing passed: ${#targets[@]} targets"
