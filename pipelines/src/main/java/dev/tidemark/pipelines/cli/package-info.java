/**
 * The command line: {@link dev.tidemark.pipelines.cli.Tidemark} (the jar's entry point), {@code
 * --help}, one-line errors for bad options, and {@code startup-archive}. Depends on the pipelines,
 * their options and {@code runner}; nothing depends on it.
 */
package dev.tidemark.pipelines.cli;
