package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;

/**
 * The rows of one query, a page at a time, with the next page requested as soon as the current one arrives: Cassandra
 * reads it while the visit decodes this one. Each page asks for as many rows as {@code pageRows} says then, so a
 * visit can size pages by the bytes its rows turn out to have. Nothing is read before the first {@link #nextPage}.
 *
 * <p>Not thread-safe: a visit uses it from one read at a time, and the futures order those reads.
 */
final class RowPages {

    private final CqlSession session;
    private final BoundStatement statement;
    private final IntSupplier pageRows;
    private final Runnable onQuery;
    private Iterator<Row> rows;                       // of the page in hand; null before the first
    private Row peeked;
    private CompletableFuture<AsyncResultSet> next;  // the page after the one in hand; null if there is none

    /**
     * @param statement the query, bound, with its consistency level and routing set
     * @param pageRows  how many rows to ask for in the next page
     * @param onQuery   called for every request sent (a query, or a page of one)
     */
    RowPages(CqlSession session, BoundStatement statement, IntSupplier pageRows, Runnable onQuery) {
        this.session = session;
        this.statement = statement;
        this.pageRows = pageRows;
        this.onQuery = onQuery;
    }

    /** The next row of the page in hand, without taking it; null if that page is used up (see {@link #isDone}). */
    Row peek() {
        if (peeked == null && rows != null && rows.hasNext()) {
            peeked = rows.next();
        }
        return peeked;
    }

    /** Takes the row {@link #peek} returned. */
    void take() {
        if (peek() == null) {
            throw new IllegalStateException("No row in hand to take");
        }
        peeked = null;
    }

    /** Whether every row has been taken and no page follows. */
    boolean isDone() {
        return rows != null && next == null && peek() == null;
    }

    /**
     * Makes the next page the one in hand, when it has arrived, and requests the one after it, if any; the first call
     * sends the query. Only for when {@link #peek} is null and the rows are not {@linkplain #isDone done}.
     */
    CompletableFuture<Void> nextPage() {
        if (peek() != null || isDone()) {
            throw new IllegalStateException("nextPage() while rows are in hand, or after the last page");
        }
        CompletableFuture<AsyncResultSet> page = rows == null ? request(null) : next;
        return page.thenAccept(result -> {
            rows = result.currentPage().iterator();
            next = result.hasMorePages() ? request(result.getExecutionInfo().getPagingState()) : null;
        });
    }

    /** Sends the query for the page at {@code pagingState}, or for the first page if that is null. */
    private CompletableFuture<AsyncResultSet> request(ByteBuffer pagingState) {
        onQuery.run();
        BoundStatement page = statement.setPageSize(Math.max(1, pageRows.getAsInt())).setPagingState(pagingState);
        return session.executeAsync(page).toCompletableFuture();
    }

}
