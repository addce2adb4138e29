/**
 * A windowed SQL query run on tidemark's pane engine, the module {@code tidemark-sql}: the query
 * planned by Beam SQL's Calcite, its expressions evaluated by Calcite's own generated code, its
 * windows and aggregates decided by {@link dev.tidemark.transforms.windowing.AggregatePerWindow}.
 * The only module that brings Beam SQL and Calcite; it depends on {@code tidemark-transforms}'
 * model, parse, windowing and replay packages, never on the pipelines.
 */
package dev.tidemark.sql;
