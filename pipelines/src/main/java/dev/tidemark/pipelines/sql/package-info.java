/**
 * The {@code sql} pipeline's own steps: a source's records through a planned query on the pane
 * engine ({@code QueryOfSource}), its panes as JSON lines ({@code SqlResultsFn}), and where its
 * planned queries come from ({@code QueryPlans}). Depends on {@code config}, {@code io}, {@code
 * steps}, tidemark's transforms and tidemark's SQL module.
 */
package dev.tidemark.pipelines.sql;
