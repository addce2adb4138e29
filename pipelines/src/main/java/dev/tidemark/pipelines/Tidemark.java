package dev.tidemark.pipelines;

import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** The entry point of {@code tidemark.jar}. */
public final class Tidemark {

  private Tidemark() {}

  /** Runs scenario S1's demo on embedded Flink; see {@link SocketCountDemo}. */
  public static void main(String[] args) throws Exception {
    PipelineOptionsFactory.register(SocketCountDemo.Options.class);
    SocketCountDemo.Options options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(SocketCountDemo.Options.class);
    System.exit(SocketCountDemo.run(options));
  }
}
