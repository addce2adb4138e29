package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.stringContainsInOrder;

import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.replay.ReplayTimeline;
import dev.tidemark.transforms.replay.ReplayTimeline.DeadLine;
import dev.tidemark.transforms.replay.ReplayTimeline.LateLine;
import dev.tidemark.transforms.replay.ReplayTimeline.Pane;
import dev.tidemark.transforms.replay.ReplayTimeline.WindowClose;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
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
    Path input = recording();
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

  /**
   * Sessions: each a band of its own length, and a close mark at its end; hovering over a close
   * mark names the session's key and bounds, as {@code explain}'s timeline has them.
   */
  @Test
  void chromiumDrawsSessionsAsBandsOfTheirOwnLength() throws Exception {
    Path chromium = chromium();
    Path input = directory.resolve("sessions.csv");
    List<String> lines = new ArrayList<>();
    GeneratedLines.records(3000)
        .withKeys(40)
        .withOutOfOrderness(Duration.millis(1500))
        .withLateFraction(0.02)
        .withSeed(5)
        .open()
        .forEachRemaining(lines::add);
    Files.write(input, lines);
    String[] args = {"--source=file:" + input, "--sessionGap=300ms", "--maxOutOfOrderness=1000ms"};
    ReplayTimeline timeline =
        ExplainRecording.timeline(
            PipelineOptionsFactory.fromArgs(args).as(ExplainRecording.Options.class));
    WindowClose session =
        timeline.windows().stream()
            .filter(w -> w.closedAfterLine() > 1000 && w.closedAfterLine() < 2000)
            .findFirst()
            .get();
    Path report = directory.resolve("sessions.html");
    CommandLine explain =
        CommandLine.run("explain", args[0], args[1], args[2], "--report=" + report);
    assertThat(explain.err, explain.exitCode, equalTo(0));

    BufferedImage screenshot = screenshot(chromium, report);
    assertThat("session bands", count(screenshot, 0xe4ecf7), greaterThan(MANY));
    assertThat("sessions closed", count(screenshot, 0x1f3b73), greaterThan(MANY));
    Path probe = directory.resolve("sessions-probe.html");
    Files.writeString(
        probe,
        Files.readString(report, StandardCharsets.UTF_8)
            .replace(
                "</body>",
                "<pre id=\"session\"></pre><script>"
                    + "document.getElementById('session').textContent = tidemarkReport.titleNear("
                    + session.closedAfterLine()
                    + ", "
                    + session.end().getMillis()
                    + ");</script></body>"),
        StandardCharsets.UTF_8);
    String dom = dumpDom(chromium, probe.toUri() + "#lines=1000-2000");
    assertThat(
        element(dom, "session"),
        startsWith(
            "session of "
                + session.sessionKey()
                + " ["
                + session.start()
                + ", "
                + session.end()
                + "): "
                + session.onTime()
                + " on time, closed after line "
                + session.closedAfterLine()));
  }

  /**
   * What a person hovering sees: the page's own hover function, asked for the title of the mark
   * nearest a late record and a dead letter, in a real browser, in the range of lines a link
   * opened, and the pane table lists panes of the timeline.
   */
  @Test
  void everyMarkHasAHoverTitleAndALinkOpensARangeOfLines() throws Exception {
    Path chromium = chromium();
    Path input = recording();
    String[] args = {"--source=file:" + input, "--windowSize=1000ms", "--maxOutOfOrderness=1000ms"};
    ReplayTimeline timeline =
        ExplainRecording.timeline(
            PipelineOptionsFactory.fromArgs(args).as(ExplainRecording.Options.class));
    LateLine late =
        timeline.late().stream().filter(l -> l.line() > 1100 && l.line() < 1400).findFirst().get();
    DeadLine dead =
        timeline.deadLetters().stream()
            .filter(d -> d.line() > 1100 && d.line() < 1400)
            .findFirst()
            .get();
    Path report = directory.resolve("report.html");
    CommandLine explain =
        CommandLine.run("explain", args[0], args[1], args[2], "--report=" + report);
    assertThat(explain.err, explain.exitCode, equalTo(0));
    Path probe = directory.resolve("probe.html");
    Files.writeString(
        probe,
        Files.readString(report, StandardCharsets.UTF_8)
            .replace(
                "</body>",
                "<pre id=\"late\"></pre><pre id=\"dead\"></pre><pre id=\"view\"></pre><script>"
                    + "document.getElementById('late').textContent = tidemarkReport.titleNear("
                    + late.line()
                    + ", "
                    + late.eventTime().getMillis()
                    + ");document.getElementById('dead').textContent = tidemarkReport.titleNear("
                    + dead.line()
                    + ", null);var v = tidemarkReport.view();"
                    + "document.getElementById('view').textContent = v.x0 + '-' + v.x1;"
                    + "</script></body>"),
        StandardCharsets.UTF_8);

    String dom = dumpDom(chromium, probe.toUri() + "#lines=1000-1500");

    assertThat(
        element(dom, "late"),
        equalTo(
            "line "
                + late.line()
                + ": late (window expired)\nkey "
                + late.key()
                + "\nevent time "
                + late.eventTime()
                + "\nwindow ["
                + late.windowStart()
                + ", "
                + late.windowEnd()
                + ")\nwatermark met "
                + late.watermark()));
    assertThat(
        element(dom, "dead"),
        stringContainsInOrder(
            "line " + dead.line() + ": dead letter\n",
            "\nwatermark met ",
            "\n" + escapeHtml(dead.raw()) + "\n-&gt; " + escapeHtml(dead.reason())));
    assertThat(element(dom, "view"), equalTo("1000-1500"));
    Set<String> panes = new HashSet<>();
    for (Pane pane : timeline.panes()) {
      panes.add(
          String.join(
              "|",
              "[" + pane.windowStart() + ", " + pane.windowEnd() + ")",
              pane.key(),
              pane.timing().name(),
              String.valueOf(pane.index()),
              pane.isFinal() ? "final" : "",
              String.valueOf(pane.count())));
    }
    List<String> rows = paneRows(dom);
    assertThat("panes of the windows in view", rows.size(), greaterThan(10));
    rows.forEach(row -> assertThat("a pane of the timeline", panes.contains(row), equalTo(true)));
  }

  /** The rows of the page's pane table, each its cells joined by |. */
  private static List<String> paneRows(String dom) {
    Matcher body = Pattern.compile("<tbody id=\"panes-body\">(.*?)</tbody>").matcher(dom);
    assertThat("the pane table", body.find(), equalTo(true));
    List<String> rows = new ArrayList<>();
    Matcher row = Pattern.compile("<tr>(.*?)</tr>").matcher(body.group(1));
    while (row.find()) {
      rows.add(row.group(1).replaceAll("^<td>|</td>$", "").replace("</td><td>", "|"));
    }
    return rows;
  }

  /** 3000 lines of 3 keys, 1.5 s out of order, 2 % late and 1 % malformed, in a file. */
  private Path recording() throws Exception {
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
    return input;
  }

  private String dumpDom(Path chromium, String url) throws Exception {
    Path dom = directory.resolve("dom.html");
    runChromium(chromium, dom, "--dump-dom", url);
    return Files.readString(dom, StandardCharsets.UTF_8);
  }

  /** The text of the element {@code id} of a dumped page, as the page escaped it. */
  private static String element(String dom, String id) {
    Matcher found =
        Pattern.compile("<pre id=\"" + id + "\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
    assertThat(id + " in the page", found.find(), equalTo(true));
    return found.group(1);
  }

  private static String escapeHtml(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private BufferedImage screenshot(Path chromium, Path page) throws Exception {
    Path png = directory.resolve("report.png");
    runChromium(
        chromium,
        directory.resolve("chromium.out"),
        "--hide-scrollbars",
        "--window-size=" + WIDTH + "," + HEIGHT,
        "--screenshot=" + png,
        page.toUri().toString());
    return ImageIO.read(png.toFile());
  }

  /** Headless {@code chromium} with {@code arguments}, its stdout into {@code output}. */
  private void runChromium(Path chromium, Path output, String... arguments) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--user-data-dir=" + directory.resolve("chromium-profile")));
    command.addAll(List.of(arguments));
    Path log = directory.resolve("chromium.log");
    Process process =
        new ProcessBuilder(command)
            .redirectError(log.toFile())
            .redirectOutput(output.toFile())
            .start();
    assertThat("chromium ends within 60 s", process.waitFor(60, TimeUnit.SECONDS), equalTo(true));
    assertThat(Files.readString(log), process.exitValue(), equalTo(0));
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
