/**
 * Event-time arithmetic and the watermark rules every tidemark source shares: saturating {@link
 * dev.tidemark.transforms.watermark.Watermarks}, bounded out-of-orderness with idle detection
 * ({@link dev.tidemark.transforms.watermark.IdleAwareWatermark}, {@link
 * dev.tidemark.transforms.watermark.InputGroup}), the guard against wrong clocks ({@link
 * dev.tidemark.transforms.watermark.ClockSkewGuard}) and the splittable-DoFn estimator. Depends on
 * Beam's core only; sources in {@code io} apply it.
 */
package dev.tidemark.transforms.watermark;
