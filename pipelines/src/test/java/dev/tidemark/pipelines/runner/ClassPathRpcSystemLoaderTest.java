package dev.tidemark.pipelines.runner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.testing.SharedRpcSystemLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.pekko.PekkoRpcSystemLoader;
import org.junit.jupiter.api.Test;

/**
 * The loader of Flink's RPC system from the class path, where the system is not on it: the tests'
 * class path, like a cluster's job jar, leaves it out. {@code AutomaticStartupArchiveIT} shows the
 * jar's runs loading it from the jar itself.
 */
class ClassPathRpcSystemLoaderTest {

  @Test
  void isAskedBeforeFlinksOwnLoader() {
    assertThat(
        new ClassPathRpcSystemLoader().getLoadPriority(),
        lessThan(new PekkoRpcSystemLoader().getLoadPriority()));
  }

  /**
   * Flink asks the lowest loader first and the others in no particular order: the tests' shared
   * loader must be the lowest, or some clusters of the suite unpack Pekko's jar again.
   */
  @Test
  void theTestsSharedLoaderIsAskedFirst() {
    assertThat(
        new SharedRpcSystemLoader().getLoadPriority(),
        lessThan(new ClassPathRpcSystemLoader().getLoadPriority()));
  }

  @Test
  void withoutTheSystemOnTheClassPathItStepsAsideAndFlinkLoadsItsOwn() throws Exception {
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> new ClassPathRpcSystemLoader().loadRpcSystem(new Configuration()));
    assertThat(refused.getMessage(), equalTo("no Flink RPC system on the class path"));

    // Flink goes on to the next loader: the tests' own, or Pekko's.
    try (RpcSystem loaded = RpcSystem.load(new Configuration())) {
      assertThat(loaded, notNullValue());
    }
  }
}
