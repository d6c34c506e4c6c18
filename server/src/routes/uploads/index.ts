// The upload area: asking which files the team already has, creating a video, its file (signed form or resumable multipart), its people
// images, the "file is up" status, and the output languages offered.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { PEOPLE_MAX, SUPPORTED_VIDEO_LANGUAGES } from '../../limits.ts';
import { VIDEO_MAX_BYTES } from '../../../../src/config/limits.ts';
import { registerCheckFiles } from './check-files.ts';
import { registerCreateVideo } from './create-video.ts';
import { registerFormReceiver } from './form-receiver.ts';
import { registerMultipartRoutes } from './multipart-routes.ts';
import { registerPartReceiver } from './part-receiver.ts';
import { registerPeopleImages } from './people-images.ts';
import { registerUpdateStatus } from './update-status.ts';

export async function registerUploadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    // Sizes are enforced by the routes while streaming; these are outer bounds on the parser.
    await scope.register(multipart, {
      limits: {
        fieldNameSize: 200,
        fieldSize: 64 * 1024,
        fields: 2 * PEOPLE_MAX + 20,
        fileSize: VIDEO_MAX_BYTES + 1,
        files: PEOPLE_MAX + 1,
        headerPairs: 100,
      },
    });
    registerCheckFiles(scope, ctx);
    registerCreateVideo(scope, ctx);
    registerFormReceiver(scope, ctx);
    registerPeopleImages(scope, ctx);
    registerUpdateStatus(scope, ctx);
    registerMultipartRoutes(scope, ctx);
    scope.get('/api/supported-videos-languages', async () => SUPPORTED_VIDEO_LANGUAGES);
  });
  await app.register(async (scope) => registerPartReceiver(scope, ctx));
}
