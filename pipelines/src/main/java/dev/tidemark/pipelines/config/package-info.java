/**
 * The command-line options every pipeline shares, and the typed values they are parsed into, once,
 * before a pipeline is built ({@link dev.tidemark.pipelines.config.EventTimeOptions}). Bad
 * configuration is a {@link dev.tidemark.pipelines.config.ConfigurationException} with one line
 * saying what is wrong. Depends on Beam's options and tidemark's transforms, nothing else here.
 */
package dev.tidemark.pipelines.config;
