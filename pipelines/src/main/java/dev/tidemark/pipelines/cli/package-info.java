/**
 * The command line: {@link dev.tidemark.pipelines.cli.Tidemark} (the jar's entry point), {@code
 * --help}, one-line errors and the summary line of a run. Depends on the pipelines and their
 * options; nothing depends on it.
 */
package dev.tidemark.pipelines.cli;
