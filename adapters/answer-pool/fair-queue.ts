/**
 * Waiting items taken in turns between groups (the users who asked): the next item comes from the group after the
 * one served last, so one user with many questions waiting does not make another's single question wait behind all
 * of them. Within a group, first in first out.
 */
export class FairQueue<T> {
  private readonly groups = new Map<string, T[]>();
  /** Groups with items waiting, the next to serve first. */
  private turns: string[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(group: string, item: T): void {
    const items = this.groups.get(group);
    if (items) items.push(item);
    else {
      this.groups.set(group, [item]);
      this.turns.push(group);
    }
    this.size++;
  }

  /** Items to run before any other (taken back from a thread that ended): at the head of their group, its turn next. */
  pushFront(group: string, items: T[]): void {
    if (items.length === 0) return;
    const waiting = this.groups.get(group);
    this.groups.set(group, waiting ? [...items, ...waiting] : [...items]);
    this.turns = [group, ...this.turns.filter((g) => g !== group)];
    this.size += items.length;
  }

  shift(): T | undefined {
    const group = this.turns.shift();
    if (group === undefined) return undefined;
    const items = this.groups.get(group)!;
    const item = items.shift()!;
    if (items.length > 0) this.turns.push(group);
    else this.groups.delete(group);
    this.size--;
    return item;
  }

  /** Takes `item` out wherever it waits; false when it was not waiting. */
  remove(group: string, item: T): boolean {
    const items = this.groups.get(group);
    const at = items ? items.indexOf(item) : -1;
    if (at < 0) return false;
    items!.splice(at, 1);
    if (items!.length === 0) {
      this.groups.delete(group);
      this.turns = this.turns.filter((g) => g !== group);
    }
    this.size--;
    return true;
  }

  /** Every item, emptying the queue. */
  drain(): T[] {
    const all = [...this.groups.values()].flat();
    this.groups.clear();
    this.turns = [];
    this.size = 0;
    return all;
  }
}
