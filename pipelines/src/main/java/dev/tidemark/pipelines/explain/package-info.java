/**
 * How {@code explain} shows a {@link dev.tidemark.transforms.replay.ReplayTimeline}: as text on the
 * terminal ({@link dev.tidemark.pipelines.explain.TimelineText}) and as one self-contained HTML
 * page whose own inline script draws the plot on a canvas ({@link
 * dev.tidemark.pipelines.explain.TimelineReport}). Depends on {@code transforms} only.
 */
package dev.tidemark.pipelines.explain;
