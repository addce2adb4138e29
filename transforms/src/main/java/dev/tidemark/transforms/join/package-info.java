/**
 * The windowed left join of scenario S4: each left record once per pane with the newest right
 * record of its key and window, or none. Depends on {@code model} and {@code windowing}.
 */
package dev.tidemark.transforms.join;
