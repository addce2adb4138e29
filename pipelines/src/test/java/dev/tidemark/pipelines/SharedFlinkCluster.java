package dev.tidemark.pipelines;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test the one {@link FlinkCluster} of its test run (two TaskManagers of 2 slots), as a
 * parameter of a test, a lifecycle method or a constructor: the first test that asks starts it,
 * every later one shares it, and it is stopped when the run ends, whether its tests passed or not
 * (JUnit closes what the root store holds). After each test its jobs are cancelled and it waits
 * until both TaskManagers are registered with every slot free, so a test that killed TaskManagers
 * or left a job running leaves nothing behind for the next.
 */
final class SharedFlinkCluster implements ParameterResolver, AfterEachCallback {

  private static final int TASK_MANAGERS = 2;
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedFlinkCluster.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == FlinkCluster.class;
  }

  @Override
  public FlinkCluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return store(context)
        .getOrComputeIfAbsent(FlinkCluster.class, type -> start(), FlinkCluster.class);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    FlinkCluster cluster = store(context).get(FlinkCluster.class, FlinkCluster.class);
    if (cluster != null) {
      cluster.reset();
    }
  }

  private static ExtensionContext.Store store(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE);
  }

  private static FlinkCluster start() {
    try {
      return FlinkCluster.start(TASK_MANAGERS);
    } catch (Exception e) {
      throw new ParameterResolutionException("the shared Flink cluster did not start", e);
    }
  }
}
