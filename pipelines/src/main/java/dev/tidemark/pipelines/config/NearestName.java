package dev.tidemark.pipelines.config;

import java.util.Collection;
import java.util.Locale;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The name a mistyped one most likely meant, for a "did you mean" in an error's one line. */
public final class NearestName {

  private NearestName() {}

  /**
   * The name of {@code names} closest to {@code name}, ignoring case, if it is close enough to be a
   * slip of the keyboard; null if none is.
   */
  public static @Nullable String among(Collection<String> names, String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : names) {
      int distance =
          LevenshteinDistance.getDefaultInstance()
              .apply(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return bestDistance <= Math.max(2, name.length() / 4) ? best : null;
  }
}
