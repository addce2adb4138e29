package dev.tidemark.transforms.watermark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.joda.time.Instant;

/** Encodes {@link InputProgress}, the state of {@link IdleAwareWatermarkEstimator}. */
public final class InputProgressCoder extends CustomCoder<InputProgress> {

  private static final long serialVersionUID = 1L;
  private static final InputProgressCoder INSTANCE = new InputProgressCoder();
  private static final InstantCoder INSTANT = InstantCoder.of();
  private static final NullableCoder<Instant> NULLABLE_INSTANT = NullableCoder.of(INSTANT);

  private InputProgressCoder() {}

  public static InputProgressCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(InputProgress value, OutputStream out) throws IOException {
    NULLABLE_INSTANT.encode(value.maxEventTime(), out);
    INSTANT.encode(value.quietSince(), out);
    INSTANT.encode(value.watermark(), out);
  }

  @Override
  public InputProgress decode(InputStream in) throws IOException {
    Instant maxEventTime = NULLABLE_INSTANT.decode(in);
    Instant quietSince = INSTANT.decode(in);
    Instant watermark = INSTANT.decode(in);
    return InputProgress.restore(maxEventTime, quietSince, watermark);
  }

  @Override
  public void verifyDeterministic() {}
}
