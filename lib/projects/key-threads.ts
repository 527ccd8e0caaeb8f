import { Worker } from "node:worker_threads";
import { processWide } from "../process-wide";

// RSA key generation on worker threads, so that a generation (a second or more of CPU) never
// holds up the event loop nor libuv's thread pool (password hashing uses that). Threads start
// when a generation needs one and exit after a while idle, so an idle process keeps no extra
// isolates in memory. How many run at once is the key queue's business (key-queue.ts).
//
// The worker's code is inline (`eval`): lib/ runs inside Next's server bundle, where a script
// file next to this module would not exist at run time.

export type RsaKeyPair = { publicKeyPem: string; privateKeyDer: Buffer };

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { generateKeyPairSync } = require("node:crypto");
parentPort.on("message", (modulusLength) => {
  try {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", {
      modulusLength,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "der" },
    });
    parentPort.postMessage({ publicKey, privateKey });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

const IDLE_EXIT_MS = 10_000;

type Reply = { publicKey: string; privateKey: Uint8Array } | { error: string };

type Thread = {
  worker: Worker;
  settle: ((reply: Reply | Error) => void) | null;
  idleTimer: NodeJS.Timeout | null;
};

const idle = processWide<Thread[]>("key-threads", () => []);

function retire(thread: Thread): void {
  const at = idle.indexOf(thread);
  if (at !== -1) idle.splice(at, 1);
  if (thread.idleTimer !== null) clearTimeout(thread.idleTimer);
}

function startThread(): Thread {
  const thread: Thread = { worker: new Worker(WORKER_SOURCE, { eval: true }), settle: null, idleTimer: null };
  const fail = (error: Error) => {
    retire(thread);
    const settle = thread.settle;
    thread.settle = null;
    settle?.(error);
  };
  thread.worker.on("message", (reply: Reply) => {
    const settle = thread.settle;
    thread.settle = null;
    settle?.(reply);
  });
  thread.worker.on("error", fail);
  thread.worker.on("exit", (code) => fail(new Error(`key generation thread exited (${code})`)));
  return thread;
}

function release(thread: Thread): void {
  // An idle thread does not keep the process alive, and leaves after IDLE_EXIT_MS.
  thread.worker.unref();
  thread.idleTimer = setTimeout(() => {
    retire(thread);
    void thread.worker.terminate();
  }, IDLE_EXIT_MS);
  thread.idleTimer.unref();
  idle.push(thread);
}

/** One RSA key pair, generated on an idle thread or a new one. */
export function generateOnThread(modulusLength: number): Promise<RsaKeyPair> {
  const thread = idle.pop() ?? startThread();
  if (thread.idleTimer !== null) clearTimeout(thread.idleTimer);
  thread.idleTimer = null;
  thread.worker.ref();
  return new Promise((resolve, reject) => {
    thread.settle = (reply) => {
      if (reply instanceof Error) return reject(reply);
      release(thread);
      if ("error" in reply) return reject(new Error(`key generation failed: ${reply.error}`));
      // A Buffer arrives as a plain Uint8Array.
      resolve({ publicKeyPem: reply.publicKey, privateKeyDer: Buffer.from(reply.privateKey.buffer, reply.privateKey.byteOffset, reply.privateKey.byteLength) });
    };
    thread.worker.postMessage(modulusLength);
  });
}
