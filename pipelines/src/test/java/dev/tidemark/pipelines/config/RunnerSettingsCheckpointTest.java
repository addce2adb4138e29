package dev.tidemark.pipelines.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.windowing.CountAndSumFn;
import java.util.List;
import java.util.concurrent.RunnableFuture;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.core.construction.SerializablePipelineOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.adapter.FlinkKey;
import org.apache.beam.runners.flink.translation.wrappers.streaming.state.FlinkStateInternals;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.java.typeutils.runtime.ValueSerializer;
import org.apache.flink.core.fs.CloseableRegistry;
import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.runtime.query.KvStateRegistry;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.runtime.state.LocalRecoveryConfig;
import org.apache.flink.runtime.state.SnapshotResult;
import org.apache.flink.runtime.state.UncompressedStreamCompressionDecorator;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackendBuilder;
import org.apache.flink.runtime.state.heap.HeapPriorityQueueSetFactory;
import org.apache.flink.runtime.state.memory.MemCheckpointStreamFactory;
import org.apache.flink.runtime.state.metrics.LatencyTrackingStateConfig;
import org.apache.flink.runtime.state.ttl.TtlTimeProvider;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint of a Flink run that {@link RunnerSettings} prepared holds each key's state as it was
 * at the barrier, even where a {@code CombineFn} changes its accumulator in place, as Beam allows
 * and Beam's own {@link Count} does.
 *
 * <p>Flink's heap state backend snapshots asynchronously: after the barrier the task goes on, and a
 * state it writes while the snapshot is still being written out is first copied by the state's
 * serializer ("copy on write"). Beam's {@code fasterCopy} makes that copy the object itself, so an
 * in-place change reaches the checkpoint, and a restore counts the records after the barrier twice:
 * once in the restored state, once replayed from the source. {@code KafkaOnFlinkClusterIT} saw 18
 * such records counted twice.
 *
 * <p>This drives the real state path, Beam's {@link FlinkStateInternals} on Flink's {@link
 * HeapKeyedStateBackend}: two records, the synchronous part of a snapshot, a third record, the
 * asynchronous part, a restore.
 */
class RunnerSettingsCheckpointTest {

  private static final int KEY_GROUPS = 1;
  private static final FlinkKey KEY = FlinkKey.of("i1|GET", StringUtf8Coder.of());
  private static final CombineFn<String, ?, Long> COUNT = Count.combineFn();

  @Test
  void aCheckpointHoldsTheCountAsOfItsBarrier() throws Exception {
    TidemarkOptions options = flinkOptions();
    RunnerSettings.apply(options, false, RunnerSettings.Bundles.EACH_ELEMENT);

    assertThat(restoredWithARecordAddedDuringTheSnapshot(options, COUNT), equalTo(2L));
  }

  /** Without it the test above could not fail: the same steps with Beam's setting alone. */
  @Test
  void fasterCopyAloneLetsARecordAfterTheBarrierIntoTheCheckpoint() throws Exception {
    FlinkPipelineOptions options = flinkOptions();
    options.setFasterCopy(true);

    assertThat(restoredWithARecordAddedDuringTheSnapshot(options, COUNT), equalTo(3L));
  }

  /**
   * {@code CountPerWindow}'s own count is exact in a checkpoint even where a user's pipeline sets
   * {@code --fasterCopy}: its accumulator is never changed in place.
   */
  @Test
  void countPerWindowsAccumulatorIsRightInACheckpointEvenWithFasterCopy() throws Exception {
    FlinkPipelineOptions options = flinkOptions();
    options.setFasterCopy(true);

    assertThat(
        restoredWithARecordAddedDuringTheSnapshot(
            options, CountAndSumFn.<String>summing(record -> (long) record.length())),
        equalTo(KV.of(2L, (long) ("first" + "second").length())));
  }

  private static TidemarkOptions flinkOptions() {
    return PipelineOptionsFactory.fromArgs("--runner=FlinkRunner", "--flinkMaster=[auto]")
        .as(TidemarkOptions.class);
  }

  private static <OutputT> OutputT restoredWithARecordAddedDuringTheSnapshot(
      FlinkPipelineOptions options, CombineFn<String, ?, OutputT> combineFn) throws Exception {
    SerializablePipelineOptions serialized = new SerializablePipelineOptions(options);
    KeyedStateHandle checkpoint;
    try (CloseableRegistry registry = new CloseableRegistry()) {
      HeapKeyedStateBackend<FlinkKey> running = backend(List.of(), registry);
      CombiningState<String, ?, OutputT> state = state(running, serialized, combineFn);
      state.add("first");
      state.add("second");

      RunnableFuture<SnapshotResult<KeyedStateHandle>> snapshot =
          running.snapshot(
              1L,
              0L,
              new MemCheckpointStreamFactory(Integer.MAX_VALUE),
              CheckpointOptions.forCheckpointWithDefaultLocation());
      state.add("after the barrier");
      snapshot.run();
      checkpoint = snapshot.get().getJobManagerOwnedSnapshot();
      running.dispose();
    }
    try (CloseableRegistry registry = new CloseableRegistry()) {
      HeapKeyedStateBackend<FlinkKey> restored = backend(List.of(checkpoint), registry);
      OutputT restoredOutput = state(restored, serialized, combineFn).read();
      restored.dispose();
      return restoredOutput;
    }
  }

  private static <OutputT> CombiningState<String, ?, OutputT> state(
      HeapKeyedStateBackend<FlinkKey> backend,
      SerializablePipelineOptions options,
      CombineFn<String, ?, OutputT> combineFn)
      throws Exception {
    backend.setCurrentKey(KEY);
    return new FlinkStateInternals<>(
            backend, StringUtf8Coder.of(), GlobalWindow.Coder.INSTANCE, options)
        .state(
            StateNamespaces.global(),
            StateTags.combiningValueFromInputInternal("count", StringUtf8Coder.of(), combineFn));
  }

  private static HeapKeyedStateBackend<FlinkKey> backend(
      List<KeyedStateHandle> restoreFrom, CloseableRegistry registry) throws Exception {
    KeyGroupRange allKeyGroups = KeyGroupRange.of(0, KEY_GROUPS - 1);
    return new HeapKeyedStateBackendBuilder<>(
            new KvStateRegistry().createTaskRegistry(new JobID(), new JobVertexID()),
            new ValueSerializer<>(FlinkKey.class),
            RunnerSettingsCheckpointTest.class.getClassLoader(),
            KEY_GROUPS,
            allKeyGroups,
            new ExecutionConfig(),
            TtlTimeProvider.DEFAULT,
            LatencyTrackingStateConfig.disabled(),
            restoreFrom,
            UncompressedStreamCompressionDecorator.INSTANCE,
            new LocalRecoveryConfig(null),
            new HeapPriorityQueueSetFactory(allKeyGroups, KEY_GROUPS, 128),
            true,
            registry)
        .build();
  }
}
