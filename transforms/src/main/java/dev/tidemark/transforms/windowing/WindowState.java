package dev.tidemark.transforms.windowing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.joda.time.Instant;

/**
 * What {@link PaneEngine} keeps for one (key, window) until the window expires. Mutable, and
 * changed only by the engine; a stateful step keeps it in state with {@link WindowStateCoder}.
 *
 * @param <InputT> a record, as the aggregate takes it
 * @param <AccumT> what the aggregate keeps
 */
public final class WindowState<InputT, AccumT> {

  /** {@link #flushDueMillis} when no EARLY pane is due. */
  static final long NO_FLUSH = Long.MAX_VALUE;

  final Instant windowStart;

  /** The end of the window; a session that grows at its end before any pane of it moves it. */
  Instant windowEnd;

  /** Every record counted in a pane so far, or due in the next one. */
  AccumT accumulated;

  /** How many records {@link #accumulated} holds. */
  long records;

  /** Records late within the lateness that wait for the window to expire (replayed input only). */
  final List<InputT> heldLate;

  long panesEmitted;
  boolean closed;
  boolean finalEmitted;

  /** Wall-clock time at which the records not yet reported are due in an EARLY pane. */
  long flushDueMillis;

  WindowState(Instant windowStart, Instant windowEnd, AccumT emptyAccumulator) {
    this(windowStart, windowEnd, emptyAccumulator, 0, new ArrayList<>(), 0, false, false, NO_FLUSH);
  }

  private WindowState(
      Instant windowStart,
      Instant windowEnd,
      AccumT accumulated,
      long records,
      List<InputT> heldLate,
      long panesEmitted,
      boolean closed,
      boolean finalEmitted,
      long flushDueMillis) {
    this.windowStart = windowStart;
    this.windowEnd = windowEnd;
    this.accumulated = accumulated;
    this.records = records;
    this.heldLate = heldLate;
    this.panesEmitted = panesEmitted;
    this.closed = closed;
    this.finalEmitted = finalEmitted;
    this.flushDueMillis = flushDueMillis;
  }

  /** The start of the window. */
  public Instant windowStart() {
    return windowStart;
  }

  /** The end of the window. */
  public Instant windowEnd() {
    return windowEnd;
  }

  /** How many records the window holds, counted in a pane so far or due in the next one. */
  public long records() {
    return records;
  }

  /** When an EARLY pane is due, in wall-clock epoch millis; {@code Long.MAX_VALUE} if none is. */
  public long flushDueMillis() {
    return flushDueMillis;
  }

  /** Whether the window's final pane has been decided: its state can be released. */
  public boolean isDone() {
    return finalEmitted;
  }

  /** The coder of a window's state, from the coders of its records and of its aggregate. */
  public static final class WindowStateCoder<InputT, AccumT>
      extends StructuredCoder<WindowState<InputT, AccumT>> {
    private final Coder<AccumT> accumulatorCoder;
    private final ListCoder<InputT> heldLateCoder;

    private WindowStateCoder(Coder<InputT> inputCoder, Coder<AccumT> accumulatorCoder) {
      this.accumulatorCoder = accumulatorCoder;
      this.heldLateCoder = ListCoder.of(inputCoder);
    }

    public static <InputT, AccumT> WindowStateCoder<InputT, AccumT> of(
        Coder<InputT> inputCoder, Coder<AccumT> accumulatorCoder) {
      return new WindowStateCoder<>(inputCoder, accumulatorCoder);
    }

    @Override
    public void encode(WindowState<InputT, AccumT> state, OutputStream out) throws IOException {
      InstantCoder.of().encode(state.windowStart, out);
      InstantCoder.of().encode(state.windowEnd, out);
      accumulatorCoder.encode(state.accumulated, out);
      VarLongCoder.of().encode(state.records, out);
      heldLateCoder.encode(state.heldLate, out);
      VarLongCoder.of().encode(state.panesEmitted, out);
      BooleanCoder.of().encode(state.closed, out);
      BooleanCoder.of().encode(state.finalEmitted, out);
      BigEndianLongCoder.of().encode(state.flushDueMillis, out);
    }

    @Override
    public WindowState<InputT, AccumT> decode(InputStream in) throws IOException {
      return new WindowState<>(
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          accumulatorCoder.decode(in),
          VarLongCoder.of().decode(in),
          new ArrayList<>(heldLateCoder.decode(in)),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in),
          BooleanCoder.of().decode(in),
          BigEndianLongCoder.of().decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(heldLateCoder, accumulatorCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(
          this, "the state must encode deterministically", heldLateCoder, accumulatorCoder);
    }
  }
}
