/**
 * A windowed SQL query run on tidemark's pane engine: the query planned by Beam SQL's Calcite, its
 * expressions evaluated by Calcite's own generated code, its windows and aggregates decided by
 * {@link dev.tidemark.transforms.windowing.AggregatePerWindow}. May depend on the model, parse,
 * windowing and replay packages; never on pipeline options.
 */
package dev.tidemark.transforms.sql;
