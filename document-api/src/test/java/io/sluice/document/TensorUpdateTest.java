package io.sluice.document;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sluice.document.UpdateFixture.DENSE;
import static io.sluice.document.UpdateFixture.MIXED;
import static io.sluice.document.UpdateFixture.SPARSE;
import static io.sluice.document.UpdateFixture.SPARSE2;
import static io.sluice.document.UpdateFixture.doc;
import static io.sluice.document.UpdateFixture.labels;
import static io.sluice.document.UpdateFixture.tensor;
import static io.sluice.document.UpdateFixture.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tensor add, remove and modify applied to whole documents. */
class TensorUpdateTest {

    private static Document apply(String field, ValueUpdate operation, Document current) {
        return update().update(field, operation).build().applyTo(current);
    }

    private static TensorModifyUpdate modify(TensorModifyUpdate.Operation operation, boolean create,
                                             Object... addressValuePairs) {
        List<TensorModifyUpdate.Cell> cells = new java.util.ArrayList<>();
        for (int i = 0; i < addressValuePairs.length; i += 2)
            cells.add(new TensorModifyUpdate.Cell(labels((String) addressValuePairs[i]),
                                                  ((Number) addressValuePairs[i + 1]).doubleValue()));
        return new TensorModifyUpdate(operation, cells, create);
    }

    @Test
    void add_sparse_addsAndReplacesCellsKeepingOthers() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=a", 1, "key=b", 20, "key=c", 3)),
                     apply("sparse", new TensorAddUpdate(tensor(SPARSE, "key=b", 20, "key=c", 3)),
                           doc("sparse", tensor(SPARSE, "key=a", 1, "key=b", 2))));
    }

    @Test
    void add_toMissingTensor_setsIt() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=a", 1)),
                     apply("sparse", new TensorAddUpdate(tensor(SPARSE, "key=a", 1)), doc()));
    }

    @Test
    void add_mixed_replacesWholeDenseSubspace() {
        TensorValue before = tensor(MIXED, "a=p,x=0", 1, "a=p,x=1", 2, "a=q,x=0", 3, "a=q,x=1", 4);
        assertEquals(doc("mixed", tensor(MIXED, "a=p,x=0", 1, "a=p,x=1", 2, "a=q,x=0", 0, "a=q,x=1", 9)),
                     apply("mixed", new TensorAddUpdate(tensor(MIXED, "a=q,x=1", 9)), doc("mixed", before)));
    }

    @Test
    void add_toDenseTensor_isRejected() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                () -> update().update("dense", new TensorAddUpdate(TensorValue.dense(DENSE, 1, 2, 3))));
        assertEquals("Field 'dense': Cannot add cells to tensor<float>(x[3]): add needs a tensor with at least one "
                     + "mapped dimension", e.getMessage());
    }

    @Test
    void add_cellsOfOtherType_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("sparse", new TensorAddUpdate(tensor(SPARSE2, "a=1,b=2", 1))));
    }

    @Test
    void remove_removesAddressedCells() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=b", 2)),
                     apply("sparse", new TensorRemoveUpdate(List.of(Map.of("key", "a"), Map.of("key", "zz"))),
                           doc("sparse", tensor(SPARSE, "key=a", 1, "key=b", 2))));
    }

    @Test
    void remove_partialAddress_removesEveryMatchingCell() {
        TensorValue before = tensor(SPARSE2, "a=1,b=1", 1, "a=1,b=2", 2, "a=2,b=1", 3);
        assertEquals(doc("sparse2", tensor(SPARSE2, "a=2,b=1", 3)),
                     apply("sparse2", new TensorRemoveUpdate(List.of(Map.of("a", "1"))), doc("sparse2", before)));
    }

    @Test
    void remove_mixed_removesWholeDenseSubspace() {
        TensorValue before = tensor(MIXED, "a=p,x=0", 1, "a=q,x=1", 4);
        assertEquals(doc("mixed", tensor(MIXED, "a=q,x=1", 4)),
                     apply("mixed", new TensorRemoveUpdate(List.of(Map.of("a", "p"))), doc("mixed", before)));
    }

    @Test
    void remove_addressWithIndexedDimension_isRejected() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                () -> update().update("mixed", new TensorRemoveUpdate(List.of(Map.of("x", "0")))));
        assertEquals("Field 'mixed': Remove address {x=0} names indexed dimension 'x'; only mapped dimensions can be "
                     + "given", e.getMessage());
    }

    @Test
    void remove_unknownDimension_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("sparse", new TensorRemoveUpdate(List.of(Map.of("nope", "a")))));
    }

    @Test
    void modify_replace_changesOnlyExistingCells() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=a", 5, "key=b", 2)),
                     apply("sparse", modify(TensorModifyUpdate.Operation.REPLACE, false, "key=a", 5, "key=new", 7),
                           doc("sparse", tensor(SPARSE, "key=a", 1, "key=b", 2))));
    }

    @Test
    void modify_add_addsToExistingCell() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=a", 3.5)),
                     apply("sparse", modify(TensorModifyUpdate.Operation.ADD, false, "key=a", 2.5),
                           doc("sparse", tensor(SPARSE, "key=a", 1))));
    }

    @Test
    void modify_addWithCreate_createsMissingCellFromZero() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=a", 1, "key=new", 7)),
                     apply("sparse", modify(TensorModifyUpdate.Operation.ADD, true, "key=new", 7),
                           doc("sparse", tensor(SPARSE, "key=a", 1))));
    }

    @Test
    void modify_multiplyWithCreate_createsMissingCellFromOne() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=a", 2, "key=new", 7)),
                     apply("sparse", modify(TensorModifyUpdate.Operation.MULTIPLY, true, "key=a", 2, "key=new", 7),
                           doc("sparse", tensor(SPARSE, "key=a", 1))));
    }

    @Test
    void modify_replaceWithCreate_onMissingTensor_createsIt() {
        assertEquals(doc("sparse", tensor(SPARSE, "key=a", 4)),
                     apply("sparse", modify(TensorModifyUpdate.Operation.REPLACE, true, "key=a", 4), doc()));
    }

    @Test
    void modify_withoutCreate_onMissingTensor_leavesItMissing() {
        assertEquals(doc(), apply("sparse", modify(TensorModifyUpdate.Operation.REPLACE, false, "key=a", 4), doc()));
    }

    @Test
    void modify_dense_multipliesOneCell() {
        assertEquals(doc("dense", TensorValue.dense(DENSE, 1, 6, 3)),
                     apply("dense", modify(TensorModifyUpdate.Operation.MULTIPLY, false, "x=1", 3),
                           doc("dense", TensorValue.dense(DENSE, 1, 2, 3))));
    }

    @Test
    void modify_mixed_cellOfMissingSubspaceWithCreate_addsSubspace() {
        assertEquals(doc("mixed", tensor(MIXED, "a=p,x=0", 1, "a=q,x=1", 5)),
                     apply("mixed", modify(TensorModifyUpdate.Operation.ADD, true, "a=q,x=1", 5),
                           doc("mixed", tensor(MIXED, "a=p,x=0", 1))));
    }

    @Test
    void modify_indexOutOfRange_isRejected() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                () -> update().update("dense", modify(TensorModifyUpdate.Operation.ADD, false, "x=3", 1)));
        assertEquals("Field 'dense': Label '3' is not a valid index for dimension x[3] of tensor<float>(x[3])",
                     e.getMessage());
    }

    @Test
    void modify_partialAddress_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("mixed", modify(TensorModifyUpdate.Operation.ADD, false, "a=p", 1)));
    }

    @Test
    void modify_onNonTensor_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("title", modify(TensorModifyUpdate.Operation.ADD, false, "x=0", 1)));
    }
}
