package dev.tidemark.pipelines;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.client.deployment.application.ApplicationClusterEntryPoint;
import org.apache.flink.client.program.PackagedProgram;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.runtime.entrypoint.ClusterEntrypoint;
import org.apache.flink.runtime.resourcemanager.StandaloneResourceManagerFactory;

/**
 * A JobManager in application mode, as the Flink Kubernetes Operator and Flink's {@code
 * standalone-job.sh} start one: Flink's {@link ApplicationClusterEntryPoint} runs a job jar's main
 * inside the JobManager, in the environment application mode gives it, and the cluster lives as
 * long as the application's jobs. Flink wires its own entry point for this, {@code
 * StandaloneApplicationClusterEntryPoint}, in {@code flink-container}, which is not served for
 * Flink 1.19 here; this is the same wiring on {@code flink-clients}' classes.
 *
 * <p>Arguments: {@code --configDir DIR [-Dkey=value ...] --jar JAR -- PROGRAM_ARGS...}.
 */
final class ApplicationModeJobManager extends ApplicationClusterEntryPoint {

  private ApplicationModeJobManager(Configuration configuration, PackagedProgram program) {
    super(configuration, program, StandaloneResourceManagerFactory.getInstance());
  }

  public static void main(String[] args) throws Exception {
    List<String> all = Arrays.asList(args);
    int programArgs = all.indexOf("--");
    Configuration configuration =
        GlobalConfiguration.loadConfiguration(all.get(all.indexOf("--configDir") + 1));
    String jar = null;
    for (int i = 0; i < programArgs; i++) {
      String arg = all.get(i);
      if (arg.startsWith("-D") && arg.contains("=")) {
        configuration.setString(
            arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      } else if (arg.equals("--jar")) {
        jar = all.get(i + 1);
      }
    }
    if (jar == null || programArgs < 0) {
      throw new IllegalArgumentException(
          "usage: --configDir DIR [-Dkey=value ...] --jar JAR -- PROGRAM_ARGS...");
    }
    PackagedProgram program =
        PackagedProgram.newBuilder()
            .setJarFile(new File(jar))
            .setArguments(
                new ArrayList<>(all.subList(programArgs + 1, all.size())).toArray(String[]::new))
            .setConfiguration(configuration)
            .build();
    configureExecution(configuration, program);
    ClusterEntrypoint.runClusterEntrypoint(new ApplicationModeJobManager(configuration, program));
  }
}
