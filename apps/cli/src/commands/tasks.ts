import { Option, type Command } from 'commander'
import { limits, TaskStatus, TaskType } from '@chatsearch/contracts'
import { UsageError } from '../errors.js'
import { describeTask, taskLine } from '../task-text.js'
import type { TaskQuery } from '../tasks.js'
import type { CommandContext } from './context.js'
import { printEnded, withTaskBar } from './follow.js'
import { integer } from './integer.js'
import { pageText } from './page.js'

type TasksOptions = TaskQuery & { wait?: true, cancel?: true }

export function taskCommands (program: Command, { env, print }: CommandContext) {
  program.command('tasks')
    .description("list a project's tasks (crawls, file and catalog imports), newest first, or show one")
    .argument('<projectId>', 'the project')
    .argument('[taskId]', 'show this task: status, progress, what it did and skipped, its error')
    .addOption(new Option('--status <status>', 'list only tasks in this status').choices(TaskStatus.anyOf.map((s) => s.const)))
    .addOption(new Option('--type <type>', 'list only tasks of this type').choices(TaskType.anyOf.map((s) => s.const)))
    .option('--limit <n>', `list at most this many (up to ${limits.searchLimitMax})`, integer(0, limits.searchLimitMax), limits.searchLimitDefault)
    .option('--offset <n>', 'tasks to skip', integer(0, Number.MAX_SAFE_INTEGER), 0)
    .option('--wait', 'with a task id: follow it to its end, progress on stderr; a crawl or files task still queued runs here')
    .option('--cancel', 'with a task id: cancel it if it has not ended (a running one stops at its next step; what it had done stays)')
    .action(async (projectId: string, taskId: string | undefined, options: TasksOptions) => {
      const { cancelTask, listTasks, showTask } = await import('../tasks.js')
      const { searchSettings } = await import('../engine.js')
      if (taskId === undefined) {
        if (options.wait === true || options.cancel === true) throw new UsageError(`${options.wait === true ? '--wait follows' : '--cancel cancels'} one task: give its id`)
        const list = await listTasks(env, searchSettings(env), projectId, options)
        print(list, pageText(list.results.map(taskLine), list, 'task'))
        return
      }
      if (options.status !== undefined || options.type !== undefined) throw new UsageError('--status and --type filter the list: not with a task id')
      if (options.cancel === true) {
        if (options.wait === true) throw new UsageError('--cancel and --wait: one or the other')
        const task = await cancelTask(env, searchSettings(env), projectId, taskId)
        print(task, describeTask(task, { times: true }))
        return
      }
      if (options.wait !== true) {
        const task = await showTask(env, searchSettings(env), projectId, taskId, { wait: false, progress: () => {} })
        print(task, describeTask(task, { times: true }))
        return
      }
      printEnded(await withTaskBar((progress) => showTask(env, searchSettings(env), projectId, taskId, { wait: true, progress })), print)
    })
}
