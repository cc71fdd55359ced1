import readline from "node:readline";

/**
 * One line of secret input for the command-line tools: typed without echo on a terminal,
 * else the first line of stdin (so scripts can pipe it). Undefined when nothing came.
 */
export async function readSecretLine(prompt: string, input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<string | undefined> {
  const tty = input.isTTY;
  const rl = readline.createInterface({ input, output: tty ? process.stderr : undefined, terminal: !!tty });
  if (tty) {
    process.stderr.write(prompt);
    // Keep what is typed off the screen.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  }
  try {
    const line = await new Promise<string | undefined>((resolve) => {
      let answered = false;
      rl.once("line", (l) => {
        answered = true;
        resolve(l);
      });
      rl.once("close", () => {
        if (!answered) resolve(undefined);
      });
    });
    if (tty) process.stderr.write("\n");
    const value = line?.replace(/\r$/, "");
    return value ? value : undefined;
  } finally {
    rl.close();
  }
}
