/**
 * Recordings replayed as a live run with the same arrival order would see them: {@link
 * dev.tidemark.transforms.replay.Replay} is the only way in, so the replay's rules cannot be
 * applied to a live source. Depends on {@code io}, {@code parse}, {@code windowing} (the preset's
 * rules) and {@code join}.
 */
package dev.tidemark.transforms.replay;
