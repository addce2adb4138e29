/**
 * The ready pipelines, {@code count}, {@code metrics} and {@code join}, each with its options, the
 * typed settings they are parsed into, and an {@code assemble} that builds it from a source and
 * sinks it is given; and the pieces they share ({@code PerWindowCounts}, {@code WriteOutputs},
 * {@code JsonLines}, {@code FlinkBundles}). Depends on {@code config}, {@code io} and tidemark's
 * transforms. A new pipeline is a class here and one line in {@code cli.Tidemark}.
 */
package dev.tidemark.pipelines;
