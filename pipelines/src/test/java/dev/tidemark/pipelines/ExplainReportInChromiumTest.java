package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.io.GeneratedLines;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.joda.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain --report} writes a page that a real browser draws: headless Chromium renders it to
 * a screenshot of the expected size that is not blank, and every kind of mark is on it in
 * quantities the legend alone cannot account for (the legend's swatches are 12 x 12 pixels). The
 * page loads nothing from elsewhere.
 *
 * <p>Needs Debian's {@code chromium}, which {@code .ci/run} installs. Without it the test fails on
 * CI and is skipped elsewhere, saying how to install it.
 */
class ExplainReportInChromiumTest {

  private static final int WIDTH = 1200;
  private static final int HEIGHT = 900;

  /** Far more pixels than a legend swatch (144) has. */
  private static final int MANY = 1000;

  @TempDir Path directory;

  @Test
  void chromiumDrawsEveryMark() throws Exception {
    Path chromium = chromium();
    Path input = directory.resolve("clicks.csv");
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(3000)
        .withKeys(3)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(0.02)
        .withBadFraction(0.01)
        .withSeed(5)
        .open()
        .forEachRemaining(lines::add);
    Files.write(input, lines);
    Path report = directory.resolve("report.html");
    CommandLine explain =
        CommandLine.run(
            "explain",
            "--source=file:" + input,
            "--windowSize=1000ms",
            "--maxOutOfOrderness=1000ms",
            "--allowedLateness=500ms",
            "--report=" + report);
    assertThat(explain.err, explain.exitCode, equalTo(0));
    String html = Files.readString(report, StandardCharsets.UTF_8);
    assertThat("self-contained", html, not(containsString("src=")));
    assertThat("self-contained", html, not(containsString("href=")));

    BufferedImage screenshot = screenshot(chromium, report);
    assertThat(screenshot.getWidth(), equalTo(WIDTH));
    assertThat(screenshot.getHeight(), equalTo(HEIGHT));
    Map<String, Integer> pixels =
        Map.of(
            "on time", count(screenshot, 0x4a78b5),
            "late within the lateness", count(screenshot, 0xf28e2b),
            "late", count(screenshot, 0xd62728),
            "watermark", count(screenshot, 0x2ca02c),
            "window closed", count(screenshot, 0x1f3b73),
            "window band", count(screenshot, 0xe4ecf7));
    pixels.forEach((mark, count) -> assertThat(mark + " pixels", count, greaterThan(MANY)));
    assertThat("not blank", distinctColors(screenshot), greaterThan(50));
  }

  private BufferedImage screenshot(Path chromium, Path page) throws Exception {
    Path png = directory.resolve("report.png");
    Process process =
        new ProcessBuilder(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--user-data-dir=" + directory.resolve("chromium-profile"),
                "--window-size=" + WIDTH + "," + HEIGHT,
                "--screenshot=" + png,
                page.toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("chromium.log").toFile())
            .start();
    assertThat("chromium ends within 60 s", process.waitFor(60, TimeUnit.SECONDS), equalTo(true));
    assertThat(
        Files.readString(directory.resolve("chromium.log")), process.exitValue(), equalTo(0));
    return ImageIO.read(png.toFile());
  }

  /** Pixels within a few levels of {@code rgb}, as anti-aliasing leaves the edges of marks. */
  private static int count(BufferedImage image, int rgb) {
    int count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if (near(image.getRGB(x, y), rgb)) {
          count++;
        }
      }
    }
    return count;
  }

  private static boolean near(int pixel, int rgb) {
    for (int shift = 0; shift <= 16; shift += 8) {
      if (Math.abs(((pixel >> shift) & 0xff) - ((rgb >> shift) & 0xff)) > 6) {
        return false;
      }
    }
    return true;
  }

  private static int distinctColors(BufferedImage image) {
    Set<Integer> colors = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        colors.add(image.getRGB(x, y) & 0xffffff);
      }
    }
    return colors.size();
  }

  /** Debian's chromium; on CI its absence is a failure, elsewhere a skip that says what to do. */
  private static Path chromium() {
    Optional<Path> found =
        Stream.of("chromium", "chromium-browser", "google-chrome")
            .flatMap(
                name ->
                    Stream.of(System.getenv("PATH").split(File.pathSeparator))
                        .map(dir -> Path.of(dir, name)))
            .filter(Files::isExecutable)
            .findFirst();
    String install = "install Debian's chromium (apt-get install chromium), as .ci/run does";
    if (found.isEmpty() && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("no chromium on this CI machine: " + install);
    }
    Assumptions.assumeTrue(found.isPresent(), "no chromium here: " + install);
    return found.get();
  }
}
