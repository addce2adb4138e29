/**
 * The command-line options every pipeline shares, and the typed values they are parsed into, once,
 * before a pipeline is built ({@link dev.tidemark.pipelines.config.EventTimeOptions}), and the
 * runner options every pipeline sets ({@link dev.tidemark.pipelines.config.RunnerSettings}).
 * Configuration only: nothing here reads the network or writes a file. Bad configuration is a
 * {@link dev.tidemark.pipelines.config.ConfigurationException} with one line saying what is wrong.
 * Depends on Beam, Flink's options and tidemark's transforms, nothing else here.
 */
package dev.tidemark.pipelines.config;
