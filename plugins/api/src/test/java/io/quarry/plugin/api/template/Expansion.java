package io.quarry.plugin.api.template;

import java.util.Map;
import java.util.Set;

/** One file a template expands to: its name, the values of the template's names, its flags. */
public record Expansion(String file, Map<String, String> values, Set<String> flags) {}
