/**
 * The command line: {@link dev.tidemark.pipelines.cli.Tidemark} (the jar's entry point), {@code
 * --help}, one-line errors for bad options, {@code startup-archive}, and what the jar keeps beside
 * itself (the startup archive, {@code sql}'s saved plans). Depends on the pipelines, their options,
 * {@code runner} and the planned queries of {@code sql}; nothing depends on it.
 */
package dev.tidemark.pipelines.cli;
