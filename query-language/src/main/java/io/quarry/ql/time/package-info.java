/** Time modifiers of the search language: relative ({@code -24h@h}), absolute and epoch times. */
package io.quarry.ql.time;
