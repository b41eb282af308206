/**
 * A first-come, first-served lock. PGlite is a single connection, so whoever holds the lock owns the
 * whole session, including an open transaction: nobody else's statement may run in the middle of it.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves, once every earlier holder has released, with the function that releases this hold. */
  lock(): Promise<() => void> {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => held);
    return previous.then(() => release);
  }
}
