package dev.tidemark.transforms.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MatchResult.Metadata;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The lines of the files that match a path or glob, in file-name order and, within a file, in line
 * order. Read through Beam's {@link FileSystems}, so any file system Beam knows works. A local path
 * is matched without walking a directory tree ({@link LocalMatch}): a path names one file, a glob
 * expands within its own directory, and only {@code **} looks into subdirectories.
 */
public final class FileLines implements RecordedLines {

  private static final long serialVersionUID = 1L;

  private final String pattern;
  private final int maxLineBytes;

  private FileLines(String pattern, int maxLineBytes) {
    this.pattern = pattern;
    this.maxLineBytes = maxLineBytes;
  }

  /** The lines of the files matching {@code pattern}, e.g. {@code /data/orders-*.json}. */
  public static FileLines matching(String pattern) {
    return new FileLines(pattern, Integer.MAX_VALUE);
  }

  /**
   * The same lines, a line longer than {@code maxLineBytes} cut to its first bytes ({@link
   * CutLines}): a file with a gigabyte on one line is read in bounded memory.
   */
  public FileLines withMaxLineBytes(int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be positive, not " + maxLineBytes);
    }
    return new FileLines(pattern, maxLineBytes);
  }

  /**
   * The matching files, sorted by name.
   *
   * @throws IOException if the pattern matches nothing or cannot be read; the message says which
   */
  public List<Metadata> files() throws IOException {
    List<String> specs =
        LocalMatch.isLocal(pattern) ? LocalMatch.expand(pattern) : List.of(pattern);
    List<Metadata> files = new ArrayList<>();
    if (!specs.isEmpty()) {
      for (MatchResult match : FileSystems.match(specs)) {
        if (match.status() == MatchResult.Status.OK) {
          files.addAll(match.metadata());
        }
      }
    }
    if (files.isEmpty()) {
      throw new IOException("no file matches '" + pattern + "'");
    }
    files.sort(Comparator.comparing(file -> file.resourceId().toString()));
    return files;
  }

  @Override
  public CutLines open() throws IOException {
    return new LinesOfFiles(files(), maxLineBytes);
  }

  @Override
  public String describe() {
    return pattern;
  }

  @Override
  public OptionalLong totalBytes() {
    try {
      return OptionalLong.of(files().stream().mapToLong(Metadata::sizeBytes).sum());
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }

  /** Reads one file after another; closing it closes the open file. */
  private static final class LinesOfFiles implements CutLines, Closeable {
    private final Iterator<Metadata> files;
    private final int maxLineBytes;
    private @Nullable Utf8LineReader reader;
    private @Nullable String next;
    private @Nullable String nextWhyCut;
    private @Nullable String whyCut;

    LinesOfFiles(List<Metadata> files, int maxLineBytes) throws IOException {
      this.files = files.iterator();
      this.maxLineBytes = maxLineBytes;
      next = readNext();
    }

    @Override
    public @Nullable String whyCut() {
      return whyCut;
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public String next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      String line = next;
      whyCut = nextWhyCut;
      try {
        next = readNext();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return line;
    }

    private @Nullable String readNext() throws IOException {
      while (true) {
        if (reader != null) {
          String line = reader.readLine();
          if (line != null) {
            nextWhyCut = reader.whyCut();
            return line;
          }
          reader.close();
          reader = null;
        }
        if (!files.hasNext()) {
          return null;
        }
        reader =
            new Utf8LineReader(
                Channels.newInputStream(FileSystems.open(files.next().resourceId())),
                Utf8LineReader.DEFAULT_BUFFER_BYTES,
                maxLineBytes);
      }
    }

    @Override
    public void close() throws IOException {
      if (reader != null) {
        reader.close();
      }
    }
  }
}
