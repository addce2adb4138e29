package dev.tidemark.transforms.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.io.fs.MatchResult.Metadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Matching paths without walking a tree. The directory under test holds two symbolic links to
 * itself: a matcher that walks the tree under a path's parent (Beam's LocalFileSystem does, and
 * follows links) would visit 2^40 paths and never return (tried: the old matcher hung here). The
 * timeout runs the test in a thread of its own, so such a hang fails the test instead of the build.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileLinesTest {

  @TempDir static Path directory;

  @BeforeAll
  static void directoryWithLoops() throws IOException {
    Files.write(directory.resolve("b.csv"), List.of("k,2"));
    Files.write(directory.resolve("a.csv"), List.of("k,1"));
    Files.write(directory.resolve("notes.txt"), List.of("not matched"));
    Files.createSymbolicLink(directory.resolve("loop1"), directory);
    Files.createSymbolicLink(directory.resolve("loop2"), directory);
  }

  @Test
  void missingPathFailsWithoutListingItsParent() {
    IOException error =
        assertThrows(
            IOException.class,
            () -> FileLines.matching(directory.resolve("no-such-file.csv").toString()).files());
    assertThat(
        error.getMessage(),
        equalTo("no file matches '" + directory.resolve("no-such-file.csv") + "'"));
  }

  @Test
  void globExpandsWithinItsOwnDirectoryInNameOrder() throws IOException {
    List<Metadata> files = FileLines.matching(directory.resolve("*.csv").toString()).files();
    assertThat(
        files.stream().map(file -> file.resourceId().getFilename()).toList(),
        contains("a.csv", "b.csv"));
  }

  @Test
  void existingPathMatchesThatFile() throws IOException {
    List<Metadata> files = FileLines.matching(directory.resolve("b.csv").toString()).files();
    assertThat(files.size(), equalTo(1));
    assertThat(files.get(0).resourceId().getFilename(), equalTo("b.csv"));
  }

  @Test
  void globWithoutMatchesFails() {
    assertThrows(
        IOException.class,
        () -> FileLines.matching(directory.resolve("*.json").toString()).files());
  }
}
