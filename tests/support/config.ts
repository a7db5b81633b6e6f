// What loadConfig refuses, as the list of problems it names (each with its variable); [] when it
// accepts the environment.
import { ConfigError, loadConfig } from '../../src/config';

export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
