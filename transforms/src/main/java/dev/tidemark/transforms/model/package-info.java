/**
 * The values that flow between tidemark's transforms (events, results, panes, late records, dead
 * letters), each with its coder. Depends on Beam's core only.
 */
package dev.tidemark.transforms.model;
