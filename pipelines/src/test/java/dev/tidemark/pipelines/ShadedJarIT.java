package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** What {@code target/tidemark.jar} is made of. */
class ShadedJarIT {

  private static final String OPTIONS_PACKAGE = "org/apache/beam/sdk/options/";

  /**
   * The jar carries tidemark's copy of Beam's {@code PipelineOptionsFactory}, every class of it and
   * nothing of Beam's: with both on the path, which one a run loads would be an accident of order.
   */
  @Test
  void carriesTidemarksPipelineOptionsFactoryAndNotBeams() throws IOException {
    Path compiled = Path.of("target", "classes", OPTIONS_PACKAGE);
    List<String> copied;
    try (Stream<Path> files = Files.list(compiled)) {
      copied =
          files
              .map(file -> file.getFileName().toString())
              .filter(ShadedJarIT::isPipelineOptionsFactory)
              .sorted()
              .toList();
    }
    assertThat(copied.size(), greaterThan(1));
    Map<String, byte[]> inJar = new TreeMap<>();
    try (ZipFile jar = new ZipFile(Path.of("target", "tidemark.jar").toFile())) {
      for (ZipEntry entry : jar.stream().toList()) {
        String name = entry.getName();
        if (name.startsWith(OPTIONS_PACKAGE)
            && isPipelineOptionsFactory(name.substring(OPTIONS_PACKAGE.length()))) {
          try (InputStream bytes = jar.getInputStream(entry)) {
            inJar.put(name.substring(OPTIONS_PACKAGE.length()), bytes.readAllBytes());
          }
        }
      }
    }
    assertThat(List.copyOf(inJar.keySet()), equalTo(copied));
    for (String classFile : copied) {
      assertThat(
          classFile + " is not tidemark's",
          Arrays.equals(inJar.get(classFile), Files.readAllBytes(compiled.resolve(classFile))),
          equalTo(true));
    }
  }

  private static boolean isPipelineOptionsFactory(String classFile) {
    return classFile.equals("PipelineOptionsFactory.class")
        || (classFile.startsWith("PipelineOptionsFactory$") && classFile.endsWith(".class"));
  }
}
