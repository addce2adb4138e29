/**
 * Table sinks: {@code jdbc:postgresql://HOST:PORT/DB?table=NAME}, one row per (key, window) kept by
 * the pane rule, late records and dead letters keyed by their origin, through PostgreSQL's JDBC
 * driver and a pool of its connections; the database's own SQL behind {@link
 * dev.tidemark.pipelines.io.jdbc.SqlDialect}.
 */
package dev.tidemark.pipelines.io.jdbc;
