/**
 * The command-line options every pipeline shares, and the typed values they are parsed into, once,
 * before a pipeline is built ({@link dev.tidemark.pipelines.config.EventTimeOptions}); and how a
 * run is set up on its runner, embedded Flink included ({@link
 * dev.tidemark.pipelines.config.RunnerSettings}). Bad configuration is a {@link
 * dev.tidemark.pipelines.config.ConfigurationException} with one line saying what is wrong. Depends
 * on Beam, Flink and tidemark's transforms, nothing else here.
 */
package dev.tidemark.pipelines.config;
