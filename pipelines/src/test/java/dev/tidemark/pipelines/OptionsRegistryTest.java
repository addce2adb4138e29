package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.beam.runners.core.construction.SerializablePipelineOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PipelineOptionsRegistrar;
import org.apache.beam.sdk.options.StreamingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry of tidemark's copy of Beam's {@link PipelineOptionsFactory}, which validates the
 * interfaces the registrars on the class path name as one set instead of one at a time (see its
 * {@code registerAll}): it must accept and refuse what Beam's did, and the options it registers
 * must parse, read, write and serialize as before. Each case here puts a registrar of its own on
 * the class path, through a class loader that adds one services file, and rebuilds the registry.
 */
class OptionsRegistryTest {

  @TempDir Path directory;

  /** Well formed alone and with every other registered interface. */
  public interface Region extends PipelineOptions {
    String getRegion();

    void setRegion(String value);
  }

  /** Well formed alone, and its {@code size} goes into the JSON of the options... */
  public interface TextSize extends PipelineOptions {
    String getSize();

    void setSize(String value);
  }

  /** ...and here it does not: the two cannot be views of one options object. */
  public interface IgnoredSize extends PipelineOptions {
    @JsonIgnore
    String getSize();

    void setSize(String value);
  }

  /** Not well formed even alone: a getter without a setter. */
  public interface GetterOnly extends PipelineOptions {
    String getUnsettable();
  }

  /** A registrar of the interfaces it is made with; each case's below names its own. */
  private abstract static class Naming implements PipelineOptionsRegistrar {
    private final List<Class<? extends PipelineOptions>> interfaces;

    @SafeVarargs
    Naming(Class<? extends PipelineOptions>... interfaces) {
      this.interfaces = List.of(interfaces);
    }

    @Override
    public Iterable<Class<? extends PipelineOptions>> getPipelineOptions() {
      return interfaces;
    }
  }

  /** Names {@link Region}. */
  public static final class RegionRegistrar extends Naming {
    public RegionRegistrar() {
      super(Region.class);
    }
  }

  /** Names {@link TextSize} and {@link IgnoredSize}. */
  public static final class ConflictingSizesRegistrar extends Naming {
    public ConflictingSizesRegistrar() {
      super(TextSize.class, IgnoredSize.class);
    }
  }

  /** Names {@link TextSize}; {@link IgnoredSizeRegistrar} names the other. */
  public static final class TextSizeRegistrar extends Naming {
    public TextSizeRegistrar() {
      super(TextSize.class);
    }
  }

  /** Names {@link IgnoredSize}. */
  public static final class IgnoredSizeRegistrar extends Naming {
    public IgnoredSizeRegistrar() {
      super(IgnoredSize.class);
    }
  }

  /** Names {@link GetterOnly}. */
  public static final class GetterOnlyRegistrar extends Naming {
    public GetterOnlyRegistrar() {
      super(GetterOnly.class);
    }
  }

  @Test
  void registersEveryInterfaceOfEveryRegistrarAndParsesTheirOptions() throws Exception {
    withRegistrars(
        () -> {
          Set<Class<? extends PipelineOptions>> registered =
              PipelineOptionsFactory.getRegisteredOptions();
          assertThat(registered, hasItem(Region.class));
          assertThat(registered, hasItem(FlinkPipelineOptions.class));
          assertThat(registered, hasItem(StreamingOptions.class));

          PipelineOptions options =
              PipelineOptionsFactory.fromArgs("--region=north", "--parallelism=3", "--streaming")
                  .create();
          assertThat(options.as(Region.class).getRegion(), equalTo("north"));
          assertThat(options.as(FlinkPipelineOptions.class).getParallelism(), equalTo(3));
          assertThat(options.as(StreamingOptions.class).isStreaming(), equalTo(true));

          options.as(Region.class).setRegion("south");
          PipelineOptions shipped = new SerializablePipelineOptions(options).get();
          assertThat(shipped.as(Region.class).getRegion(), equalTo("south"));
          assertThat(shipped.as(FlinkPipelineOptions.class).getParallelism(), equalTo(3));
        },
        RegionRegistrar.class);
  }

  @Test
  void refusesTwoInterfacesOfOneRegistrarThatDisagreeOnAProperty() {
    assertThat(
        refusal(ConflictingSizesRegistrar.class),
        containsString("Expected getter for property [size] to be marked with @JsonIgnore on all"));
  }

  @Test
  void refusesTwoInterfacesOfTwoRegistrarsThatDisagreeOnAProperty() {
    assertThat(
        refusal(TextSizeRegistrar.class, IgnoredSizeRegistrar.class),
        containsString("Expected getter for property [size] to be marked with @JsonIgnore on all"));
  }

  @Test
  void refusesAnInterfaceThatIsNotWellFormedAlone() {
    assertThat(
        refusal(GetterOnlyRegistrar.class),
        containsString("Expected setter for property [unsettable]"));
  }

  /** What rebuilding the registry with {@code registrars} on the class path fails with. */
  @SafeVarargs
  private String refusal(Class<? extends PipelineOptionsRegistrar>... registrars) {
    return assertThrows(
            RuntimeException.class,
            () -> withRegistrars(PipelineOptionsFactory::resetCache, registrars),
            "the registry took registrars it should have refused")
        .getMessage();
  }

  /**
   * Rebuilds the registry with {@code registrars} on the class path, runs {@code check}, and
   * rebuilds it without them, however {@code check} ends.
   */
  @SafeVarargs
  private void withRegistrars(
      ThrowingRunnable check, Class<? extends PipelineOptionsRegistrar>... registrars)
      throws Exception {
    Path services = directory.resolve("META-INF/services");
    Files.createDirectories(services);
    StringBuilder names = new StringBuilder();
    for (Class<?> registrar : registrars) {
      names.append(registrar.getName()).append('\n');
    }
    Files.writeString(services.resolve(PipelineOptionsRegistrar.class.getName()), names);
    Thread thread = Thread.currentThread();
    ClassLoader original = thread.getContextClassLoader();
    try (URLClassLoader withServices =
        new URLClassLoader(new URL[] {directory.toUri().toURL()}, original)) {
      thread.setContextClassLoader(withServices);
      PipelineOptionsFactory.resetCache();
      check.run();
    } finally {
      thread.setContextClassLoader(original);
      PipelineOptionsFactory.resetCache();
    }
  }

  /** A check that may throw. */
  private interface ThrowingRunnable {
    void run() throws Exception;
  }
}
