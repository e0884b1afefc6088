// Handlers for the grade domain: start a grade job, wait for it, cancel it (progress goes out as grade.progress).
import type { gradeApi } from '../../../shared/api/grade';
import { cancelGrade, startGradeJob, waitGrade } from '../../judges/grade-job';
import type { HandlerMap } from './types';

export const gradeHandlers: HandlerMap<keyof typeof gradeApi> = {
  'grade.start': (input, ctx) => startGradeJob(ctx, input),
  'grade.wait': (input, ctx) => waitGrade(ctx, input.grade_id),
  'grade.cancel': (input, ctx) => ({ cancelled: cancelGrade(ctx, input.grade_id) }),
};
