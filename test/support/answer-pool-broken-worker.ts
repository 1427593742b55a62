/** A task module that cannot load (as after a broken installation): the answer pool must fail its tasks, not loop. */
throw new Error('this task module cannot load');
