package dev.tidemark.transforms.windowing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.runners.core.construction.SerializablePipelineOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.adapter.FlinkKey;
import org.apache.beam.runners.flink.translation.types.CoderTypeInformation;
import org.apache.beam.runners.flink.translation.types.CoderTypeSerializer;
import org.apache.beam.runners.flink.translation.wrappers.streaming.DoFnOperator;
import org.apache.beam.runners.flink.translation.wrappers.streaming.KvToFlinkKeyKeySelector;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link LivePanesFn} restored as Flink restores it: its state from a snapshot, its input watermark
 * back at the minimum. Beam's own operator ({@code DoFnOperator}) runs the step in Flink's operator
 * test harness, and a new operator restores the first one's snapshot, so the test takes
 * milliseconds where a savepoint on a cluster takes a minute ({@code KafkaOnFlinkClusterIT} does
 * that too).
 */
class LivePanesFnRestoreTest {

  private static final FlinkPipelineOptions OPTIONS =
      PipelineOptionsFactory.fromArgs("--streaming").as(FlinkPipelineOptions.class);
  private static final CombineFn<Long, ?, Long> SUM = Sum.ofLongs();
  private static final TupleTag<KeyedPane<String, Long>> PANES = new TupleTag<>("panes");
  private static final TupleTag<KeyedExpired<String, Long>> EXPIRED = new TupleTag<>("expired");
  private static final Coder<KeyedPane<String, Long>> PANE =
      KeyedPane.KeyedPaneCoder.of(StringUtf8Coder.of(), VarLongCoder.of());
  private static final Coder<KeyedExpired<String, Long>> EXPIRED_RECORD =
      KeyedExpired.KeyedExpiredCoder.of(StringUtf8Coder.of(), VarLongCoder.of());

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final OutputTag<WindowedValue<?>> EXPIRED_OUTPUT =
      new OutputTag<>(
          "expired",
          (CoderTypeInformation)
              new CoderTypeInformation<>(inGlobalWindow(EXPIRED_RECORD), OPTIONS));

  /**
   * A record of a window that expired before the restore is late, although the restored job's first
   * records come before any watermark: judged by the minimum, it would open the window again and
   * give it a second final pane.
   */
  @Test
  void aRecordOfAWindowThatExpiredBeforeARestoreStaysLate() throws Exception {
    EventTimeWindowing windowing = EventTimeWindowing.fixed(Duration.standardSeconds(1));
    OperatorSubtaskState stopped;
    try (KeyedOneInputStreamOperatorTestHarness<FlinkKey, WindowedValue<KV<String, ?>>, ?> before =
        harness(windowing)) {
      before.open();
      before.processElement(record(1, 500));
      before.processWatermark(5_000);
      assertThat(panes(before), contains("[0, 1000) ON_TIME#0 final = 1"));
      stopped = before.snapshot(1, 5_001);
    }
    try (KeyedOneInputStreamOperatorTestHarness<FlinkKey, WindowedValue<KV<String, ?>>, ?> after =
        harness(windowing)) {
      after.initializeState(stopped);
      after.open();
      after.processElement(record(7, 700));
      after.processWatermark(6_000);

      assertThat(panes(after), empty());
      assertThat(expired(after), contains("7 missed [0, 1000) at 5000"));
    }
  }

  private static StreamRecord<WindowedValue<KV<String, ?>>> record(long value, long time) {
    KV<String, ?> element = KV.of("k", Contribution.of(value));
    return new StreamRecord<>(
        WindowedValues.of(element, new Instant(time), GlobalWindow.INSTANCE, PaneInfo.NO_FIRING));
  }

  /** The pane step of a sum per key in {@code windowing}, in a new operator and harness. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static KeyedOneInputStreamOperatorTestHarness<FlinkKey, WindowedValue<KV<String, ?>>, ?>
      harness(EventTimeWindowing windowing) throws Exception {
    Coder accumulatorCoder =
        ((CombineFn) SUM).getAccumulatorCoder(CoderRegistry.createDefault(), VarLongCoder.of());
    LivePanesFn fn =
        new LivePanesFn<>(
            windowing,
            (CombineFn) SUM,
            VarLongCoder.of(),
            accumulatorCoder,
            new PaneOutputs.Typed<String, Long, Long>(PANES, EXPIRED));
    Coder input =
        KvCoder.of(
            StringUtf8Coder.of(),
            Contribution.ContributionCoder.of(VarLongCoder.of(), accumulatorCoder));
    SerializablePipelineOptions options = new SerializablePipelineOptions(OPTIONS);
    KvToFlinkKeyKeySelector keySelector = new KvToFlinkKeyKeySelector<>(StringUtf8Coder.of());
    DoFnOperator operator =
        new DoFnOperator<>(
            fn,
            "panes",
            inGlobalWindow(input),
            Map.of(PANES, PANE, EXPIRED, EXPIRED_RECORD),
            (TupleTag) PANES,
            List.of(EXPIRED),
            new DoFnOperator.MultiOutputOutputManagerFactory(
                PANES,
                Map.of(EXPIRED, EXPIRED_OUTPUT),
                Map.of(PANES, inGlobalWindow(PANE), EXPIRED, inGlobalWindow(EXPIRED_RECORD)),
                Map.of(PANES, 0, EXPIRED, 1),
                options),
            WindowingStrategy.globalDefault(),
            Map.of(),
            List.of(),
            OPTIONS,
            StringUtf8Coder.of(),
            keySelector,
            DoFnSchemaInformation.create(),
            Map.of());
    KeyedOneInputStreamOperatorTestHarness harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            operator, keySelector, keySelector.getProducedType());
    harness.setup(new CoderTypeSerializer<>(inGlobalWindow(PANE), options));
    return harness;
  }

  private static <T> Coder<WindowedValue<T>> inGlobalWindow(Coder<T> coder) {
    return WindowedValues.getFullCoder(coder, GlobalWindow.Coder.INSTANCE);
  }

  private static List<String> panes(KeyedOneInputStreamOperatorTestHarness<?, ?, ?> harness) {
    List<String> panes = new ArrayList<>();
    for (Object output : harness.extractOutputValues()) {
      @SuppressWarnings("unchecked")
      KeyedPane<String, Long> pane = ((WindowedValue<KeyedPane<String, Long>>) output).getValue();
      panes.add(pane.pane() + " = " + pane.value());
    }
    return panes;
  }

  private static List<String> expired(KeyedOneInputStreamOperatorTestHarness<?, ?, ?> harness) {
    List<String> expired = new ArrayList<>();
    ConcurrentLinkedQueue<StreamRecord<WindowedValue<?>>> records =
        harness.getSideOutput(EXPIRED_OUTPUT);
    for (StreamRecord<WindowedValue<?>> record :
        records == null ? List.<StreamRecord<WindowedValue<?>>>of() : records) {
      @SuppressWarnings("unchecked")
      KeyedExpired<String, Long> late = (KeyedExpired<String, Long>) record.getValue().getValue();
      expired.add(
          late.value()
              + " missed ["
              + late.window().start().getMillis()
              + ", "
              + late.window().end().getMillis()
              + ") at "
              + late.watermark().getMillis());
    }
    return expired;
  }
}
