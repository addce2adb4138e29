package dev.tidemark.pipelines.runner;

import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;

/**
 * Flink's RPC system (Pekko, with the Scala it is written in) loaded from the jar's own class path,
 * as one more library of the run, for the embedded cluster that every local run starts.
 *
 * <p>Flink's own loader ({@code PekkoRpcSystemLoader}) keeps that system in a jar inside its jar:
 * for every cluster it unpacks those 22 MB into a new file under {@code io.tmp.dirs} and loads
 * Pekko and Scala from it into a class loader of their own, so that they never meet a user's Scala.
 * A run of {@code java -jar tidemark.jar} has no other Scala, and its build puts the system's
 * classes in the jar itself: this loader, listed as a service and asked before Flink's ({@link
 * #getLoadPriority}), finds the system there. Its classes then come from the jar's startup archive
 * like the rest, already parsed and verified, and nothing is unpacked: loading the system and
 * starting the cluster's RPC service took 0.42 to 0.50 s this way against 1.10 to 1.14 s Flink's
 * way, in JVMs that map an archive of the classes they load (Flink 1.19, Java 17, a 2-core
 * machine). Written by hand: Flink has no loader that takes the system from the class path.
 *
 * <p>Where the system is not on the class path (the job jar, which a cluster runs with its own; the
 * tests, whose Kafka broker brings another Scala), it says so, and Flink asks the next loader.
 */
public final class ClassPathRpcSystemLoader implements RpcSystemLoader {

  /**
   * Before Flink's own loader (0). Flink walks its loaders' priority queue with its iterator, which
   * gives only the lowest first: the tests' shared loader is lower still (-3), so that this one,
   * which finds no system on their class path, never puts Pekko's ahead of it.
   */
  @Override
  public int getLoadPriority() {
    return -2;
  }

  @Override
  public RpcSystem loadRpcSystem(Configuration config) {
    return ServiceLoader.load(RpcSystem.class, ClassPathRpcSystemLoader.class.getClassLoader())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no Flink RPC system on the class path"));
  }
}
