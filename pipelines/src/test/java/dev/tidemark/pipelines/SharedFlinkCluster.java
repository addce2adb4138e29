package dev.tidemark.pipelines;

import dev.tidemark.transforms.testing.SharedService;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test the one {@link FlinkCluster} of its test run, two TaskManagers of 2 slots ({@link
 * SharedService}). After each test its jobs are cancelled and it waits until both TaskManagers are
 * registered with every slot free, so a test that killed TaskManagers or left a job running leaves
 * nothing behind for the next. Test classes run two at a time, and that reset cancels every job of
 * the cluster: a class that uses the cluster holds {@link #LOCK}, so only one at a time does.
 */
final class SharedFlinkCluster extends SharedService<FlinkCluster> implements AfterEachCallback {

  /** The {@code @ResourceLock} of the tests that use the cluster. */
  static final String LOCK = "tidemark-flink-cluster";

  /**
   * The {@code @Order} of the classes that use the cluster: before the others, which run beside
   * them, one at a time, on the other thread.
   */
  static final int ORDER = 1;

  private static final int TASK_MANAGERS = 2;

  SharedFlinkCluster() {
    super(FlinkCluster.class, () -> FlinkCluster.start(TASK_MANAGERS));
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    FlinkCluster cluster = startedOrNull(context);
    if (cluster != null) {
      cluster.reset();
    }
  }
}
