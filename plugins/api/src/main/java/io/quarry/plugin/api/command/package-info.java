/**
 * Commands and functions a plugin adds: a {@link io.quarry.plugin.api.command.CommandDefinition}
 * (name, {@link io.quarry.plugin.api.command.CommandKind}, declared {@link
 * io.quarry.plugin.api.command.ArgumentSpec}s) binds a use to a {@link
 * io.quarry.plugin.api.command.BoundCommand}, whose {@link io.quarry.plugin.api.command.Operator}s
 * work on typed pages with the same pull protocol as built-ins.
 */
package io.quarry.plugin.api.command;
