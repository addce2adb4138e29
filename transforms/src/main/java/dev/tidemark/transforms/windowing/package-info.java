/**
 * Windows and panes: the preset ({@link dev.tidemark.transforms.windowing.EventTimeWindowing}) and
 * its kinds of window ({@link dev.tidemark.transforms.windowing.WindowKind}: tumbling, sliding,
 * cumulating, sessions), the one core that decides panes ({@link
 * dev.tidemark.transforms.windowing.PaneEngine}), its live steps for any {@code KV<K, V>} ({@link
 * dev.tidemark.transforms.windowing.AggregatePerWindow}, with {@link
 * dev.tidemark.transforms.windowing.CountPerWindow} as the adapter for events; for batches, what a
 * batch's watermark bound proves on time is aggregated before the shuffle). Recordings use {@code
 * replay}, on the same core. Depends on {@code model}, {@code watermark}, and {@code metrics}.
 */
package dev.tidemark.transforms.windowing;
