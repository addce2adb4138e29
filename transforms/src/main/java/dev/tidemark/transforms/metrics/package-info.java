/**
 * The names of every Beam metric tidemark reports ({@link
 * dev.tidemark.transforms.metrics.TidemarkMetrics}). Depends on Beam's metrics API only; every
 * other package that counts or gauges something goes through it.
 */
package dev.tidemark.transforms.metrics;
