/**
 * Where pipelines read and write: a {@link dev.tidemark.pipelines.io.Source} and a {@link
 * dev.tidemark.pipelines.io.Sink} per URI scheme ({@code file:}, {@code generator:}, {@code
 * sample:}, {@code socket://}, {@code kafka://}, {@code stdout}), parsed and checked by {@link
 * dev.tidemark.pipelines.io.SourceUri} and {@link dev.tidemark.pipelines.io.SinkUri} before a job
 * starts. A new scheme is one class here and one branch in its URI parser. Depends on {@code
 * config} and tidemark's transforms.
 */
package dev.tidemark.pipelines.io;
