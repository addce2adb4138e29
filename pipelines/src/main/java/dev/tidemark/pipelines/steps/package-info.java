/**
 * The steps the pipelines share: a source's records counted per key and window ({@code
 * CountsOfSource}, {@code PerWindowCounts}), each output written to its sink as JSON lines ({@code
 * WriteOutputs}, {@code JsonLines}), and the Flink bundle size each source wants ({@code
 * FlinkBundles}). Depends on {@code config}, {@code io} and tidemark's transforms.
 */
package dev.tidemark.pipelines.steps;
