/**
 * The ready pipelines, {@code count}, {@code metrics}, {@code join} and {@code sql}, each with its
 * options, the typed settings they are parsed into, and an {@code assemble} that builds it from a
 * source and sinks it is given; nothing else. The steps they share are in {@code steps}, the SQL
 * pipeline's own in {@code sql}. Depends on {@code config}, {@code io}, {@code steps}, {@code sql},
 * {@code explain} and tidemark's transforms. A new pipeline is a class here and one line in {@code
 * cli.Tidemark}.
 */
package dev.tidemark.pipelines;
